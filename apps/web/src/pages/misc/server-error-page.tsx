import { MiscPage } from './misc-page.tsx';

export default function ServerErrorPage() {
  return <MiscPage code="500" name="serverError" />;
}
