import { act, renderHook } from '@testing-library/react';
import { useEdit } from './use-edit';

describe('useEdit', () => {
  it('shows the stored value until the user types', () => {
    const { result } = renderHook(({ stored }) => useEdit(stored), { initialProps: { stored: '5' } });
    expect(result.current[0]).toBe('5');
  });

  it('keeps what the user typed when a reload brings the same stored value back', () => {
    const { result, rerender } = renderHook(({ stored }) => useEdit(stored), { initialProps: { stored: '5' } });
    act(() => result.current[1]('10'));
    rerender({ stored: '5' });
    expect(result.current[0]).toBe('10');
  });

  it('follows the stored value once it changes (saved here or elsewhere), and again after that', () => {
    const { result, rerender } = renderHook(({ stored }) => useEdit(stored), { initialProps: { stored: '5' } });
    act(() => result.current[1]('10'));
    rerender({ stored: '7' });
    expect(result.current[0]).toBe('7');
    act(() => result.current[1]('8'));
    rerender({ stored: '7' });
    expect(result.current[0]).toBe('8');
  });
});
