export { itIT as default } from '@mui/material/locale';
