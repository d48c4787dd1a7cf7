import type { SecondFactorPending, TwoFactorEnrolment, twoFactorContracts } from '@werkwissen/shared';
import { call, endpoint } from './http.ts';

/** The sign-in's second step, typed by the contracts without loading their schemas on the sign-in page. */
const signInSteps = {
  enrol: endpoint<typeof twoFactorContracts.startSignInEnrolment>({
    method: 'POST',
    path: '/auth/two-factor/enrolment',
    permission: 'public',
  }),
  verify: endpoint<typeof twoFactorContracts.verifySecondFactor>({
    method: 'POST',
    path: '/auth/two-factor/verify',
    permission: 'public',
  }),
};

/** Whether a sign-in's answer asks for the second factor instead of naming the user. */
export function isSecondFactorPending(answer: object): answer is SecondFactorPending {
  return 'secondFactor' in answer;
}

/** During a sign-in that must enrol: a new secret and its QR code. */
export function startSignInEnrolment(): Promise<TwoFactorEnrolment> {
  return call(signInSteps.enrol);
}

/** Completes the sign-in with a code of the app or a recovery code. */
export function verifySecondFactor(proof: { code: string } | { recoveryCode: string }) {
  return call(signInSteps.verify, { body: proof });
}
