export { plPL as default } from '@mui/material/locale';
