import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { InstanceScores, PAGE_SIZE } from './instance-scores';
import { GraphqlProvider } from '../lib/auth';
import { jsonResponse } from '../test/json-response';
import { defined } from '../../../../test/support/defined';

interface Sent {
  query: string;
  variables: { order: string; offset: number; limit: number };
}

function mockApi(total: number) {
  const sent: Sent[] = [];
  const fetchMock = jest.fn(async (_url: string, init: { body: string }) => {
    const body = JSON.parse(init.body) as Sent;
    sent.push(body);
    const { offset, limit } = body.variables;
    const rows = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      instanceId: `i${offset + i}`,
      position: offset + i,
      source: `source ${offset + i}`,
      references: [`ref ${offset + i}`],
      output: `output ${offset + i}`,
      score: offset + i,
    }));
    return jsonResponse(({ data: { instanceScores: { total, offset, limit, rows } } }));
  });
  (globalThis as { fetch: unknown }).fetch = fetchMock;
  return sent;
}

describe('InstanceScores', () => {
  it('asks for the worst instances first: ascending scores for BLEU, descending for TER', async () => {
    const sent = mockApi(5);
    const { unmount } = render(<GraphqlProvider><InstanceScores submissionId="s1" metric="bleu" higherIsBetter /></GraphqlProvider>);
    await screen.findAllByTestId('instance-row');
    expect(defined(sent.at(-1)).variables.order).toBe('ASC');
    unmount();
    render(<GraphqlProvider><InstanceScores submissionId="s1" metric="ter" higherIsBetter={false} /></GraphqlProvider>);
    await waitFor(() => expect(defined(sent.at(-1)).variables.order).toBe('DESC'));
  });

  it('pages through the instances and goes back to the first page when the order changes', async () => {
    const sent = mockApi(45);
    render(<GraphqlProvider><InstanceScores submissionId="s1" metric="bleu" higherIsBetter /></GraphqlProvider>);
    await screen.findByText(`Page 1 of 3 (45 instances)`, { exact: false });
    expect(screen.getAllByTestId('instance-row')).toHaveLength(PAGE_SIZE);
    fireEvent.click(screen.getByRole('button', { name: /Next/ }));
    fireEvent.click(await screen.findByRole('button', { name: /Next/ }));
    await screen.findByText('Page 3 of 3', { exact: false });
    await waitFor(() => expect(screen.getAllByTestId('instance-row')).toHaveLength(5));
    expect(defined(sent.at(-1)).variables.offset).toBe(40);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: /Next/ }).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('instance-order'), { target: { value: 'position' } });
    await waitFor(() => expect(defined(sent.at(-1)).variables).toMatchObject({ order: 'POSITION', offset: 0 }));
  });

  it('shows the error and a retry button when the API fails', async () => {
    (globalThis as { fetch: unknown }).fetch = jest.fn(async () => (jsonResponse(({ errors: [{ message: 'submission not found', extensions: { code: 'NOT_FOUND' } }] }))));
    render(<GraphqlProvider><InstanceScores submissionId="nope" metric="bleu" higherIsBetter /></GraphqlProvider>);
    expect((await screen.findByRole('alert')).textContent).toContain('submission not found');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
