import { MiscPage } from './misc-page.tsx';

export default function ComingSoonPage() {
  return <MiscPage name="comingSoon" />;
}
