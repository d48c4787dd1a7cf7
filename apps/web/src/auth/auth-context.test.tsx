import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { signedInAs } from '../test/fixtures.ts';
import { loadedAbilityBuilder } from './ability.ts';
import { AuthProvider, useAuth } from './auth-context.tsx';

// Without `test/render.tsx`, which loads CASL up front as the app's start does with a stored session.
afterEach(() => {
  cleanup();
  localStorage.clear();
});

function Rights() {
  const { state, abilityReady, ability } = useAuth();
  return (
    <p data-testid="rights">
      {state} {abilityReady ? 'ready' : 'waiting'} {ability.can('read', 'Division') ? 'may' : 'may not'}
    </p>
  );
}

describe('the signed-in user’s rules', () => {
  it('wait for CASL, which the first load leaves out, and then answer as the stored rules say', async () => {
    expect(loadedAbilityBuilder()).toBeNull();
    signedInAs('DataManager');
    render(
      <AuthProvider confirmed>
        <Rights />
      </AuthProvider>,
    );
    expect(screen.getByTestId('rights').textContent).toBe('signedIn waiting may not');
    await screen.findByText('signedIn ready may');
  });

  it('are none for a visitor, without waiting', () => {
    render(
      <AuthProvider confirmed>
        <Rights />
      </AuthProvider>,
    );
    expect(screen.getByTestId('rights').textContent).toBe('none ready may not');
  });
});
