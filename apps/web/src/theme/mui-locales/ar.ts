export { arSD as default } from '@mui/material/locale';
