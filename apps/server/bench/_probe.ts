import { signedInDataManager, startTestServer } from '../test/support/test-server.ts';
const t = await startTestServer({ smtp: false, env: { LOG_LEVEL: 'warn' } });
const { email, password } = await signedInDataManager(t);
const body = JSON.stringify({ email, password, area: 'user' });
const one = async () => {
  const r = await fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return `${r.status} ${(await r.text()).slice(0, 150)}`;
};
console.log('single', await one());
const tally = new Map<string, number>();
for (const s of await Promise.all(Array.from({ length: 50 }, one))) tally.set(s.slice(0, 120), (tally.get(s.slice(0, 120)) ?? 0) + 1);
console.log(tally);
console.log(t.logs.slice(-5).join(''));
console.time('close');
await t.close();
console.timeEnd('close');
