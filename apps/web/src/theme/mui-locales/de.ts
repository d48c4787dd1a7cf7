export { deDE as default } from '@mui/material/locale';
