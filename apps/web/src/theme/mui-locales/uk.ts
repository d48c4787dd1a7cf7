export { ukUA as default } from '@mui/material/locale';
