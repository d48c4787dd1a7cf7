import { MiscPage } from './misc-page.tsx';

export default function UnderMaintenancePage() {
  return <MiscPage name="maintenance" />;
}
