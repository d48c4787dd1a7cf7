import { MiscPage } from './misc-page.tsx';

export default function NotAuthorizedPage() {
  return <MiscPage code="401" name="notAuthorized" />;
}
