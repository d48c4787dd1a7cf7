import { MiscPage } from './misc-page.tsx';

export default function NotFoundPage() {
  return <MiscPage code="404" name="notFound" />;
}
