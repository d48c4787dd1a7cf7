import { Navigate } from 'react-router';
import { useAuth } from '../../auth/auth-context.tsx';

/** Sends each role to its home, and visitors to the login. */
export default function RedirectingPage() {
  const auth = useAuth();
  return <Navigate to={auth.state === 'signedIn' ? auth.home : '/login'} replace />;
}
