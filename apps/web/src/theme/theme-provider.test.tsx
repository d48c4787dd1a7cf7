import { Autocomplete, Rating, TablePagination, TextField } from '@mui/material';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp, useLanguage } from '../test/render.tsx';

function Controls() {
  return (
    <>
      <Autocomplete
        options={['Heizung']}
        renderInput={(params) => <TextField {...params} label="Bereich" />}
      />
      <Rating name="rating" value={null} readOnly={false} />
      <TablePagination component="div" count={50} page={0} rowsPerPage={10} onPageChange={() => {}} />
    </>
  );
}

describe("MUI's own texts", () => {
  it('are in German in a German interface', async () => {
    await useLanguage('de');
    renderWithApp(<Controls />);
    expect(screen.getByRole('button', { name: 'Öffnen' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Keine Wertung' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Zur nächsten Seite' })).toBeTruthy();
    expect(screen.getByText('Zeilen pro Seite:')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
  });

  it('are in Arabic in an Arabic interface, and English otherwise', async () => {
    await useLanguage('ar');
    const { unmount } = renderWithApp(<Controls />);
    expect(screen.getByRole('button', { name: 'فتح' })).toBeTruthy();
    unmount();
    await useLanguage('en');
    renderWithApp(<Controls />);
    expect(screen.getByRole('button', { name: 'Open' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeTruthy();
  });
});
