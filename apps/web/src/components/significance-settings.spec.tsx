import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { SignificanceSettings } from './significance-settings';
import { jsonResponse } from '../test/json-response';

describe('SignificanceSettings', () => {
  it('saves blank resamples as automatic (null) with the seed, then reloads the board', async () => {
    const fetchMock = jest.fn(async () => (jsonResponse(({ data: { setPhaseSignificance: { phaseId: 'p1', resamples: null, seed: 7 } } }))));
    (globalThis as { fetch: unknown }).fetch = fetchMock;
    const onSaved = jest.fn();
    render(<SignificanceSettings phaseId="p1" resamples={11000} resamplesChosen seed={12345} onSaved={onSaved} />);
    fireEvent.change(screen.getByLabelText('Seed'), { target: { value: '7' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const body = JSON.parse((fetchMock.mock.calls[0] as unknown as [string, { body: string }])[1].body);
    expect(body.variables).toEqual({ phaseId: 'p1', resamples: null, seed: 7 });
  });

  it('refuses a resample count that is not a whole number', async () => {
    render(<SignificanceSettings phaseId="p1" resamples={500} resamplesChosen={false} seed={1} onSaved={() => undefined} />);
    fireEvent.change(screen.getByLabelText('Resamples (blank: automatic)'), { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/whole number/);
  });
});
