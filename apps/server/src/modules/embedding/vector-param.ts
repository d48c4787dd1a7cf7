// Until processing/passage-writer.ts, converted on another branch, imports it from db/ (then this file goes).
export { vectorArrayParam } from '../../db/vector-param.ts';
