import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { BlankLayout } from './blank-layout.tsx';

describe('the blank layout', () => {
  it('shows the product on sign-in pages, and neither its logo nor its pitch on the pages of a company’s customers', () => {
    const { unmount } = renderWithApp(
      <BlankLayout>
        <p>Anmeldung</p>
      </BlankLayout>,
      '/login',
    );
    expect(screen.getByRole('img')).toBeTruthy();
    unmount();
    const { container } = renderWithApp(
      <BlankLayout wide>
        <p>Öffentlicher Chat</p>
      </BlankLayout>,
      '/p/token',
    );
    expect(screen.getByText('Öffentlicher Chat')).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('aside')).toBeNull();
  });
});
