export { ruRU as default } from '@mui/material/locale';
