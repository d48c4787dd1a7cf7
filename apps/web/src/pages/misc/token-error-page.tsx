import { MiscPage } from './misc-page.tsx';

export default function TokenErrorPage() {
  return <MiscPage name="tokenError" />;
}
