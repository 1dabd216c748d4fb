import { useCallback, useState } from 'react';

/**
 * One form field over a stored value (a phase's limit, its name): what the user types survives
 * reloads that bring the same stored value back (another form's action reloads the tasks, a
 * submission is scored), and the field shows the stored value again once that value changes
 * (after saving, or when someone else changed it). An edit remembers the stored value it was
 * made over and counts only while the stored value is still that one.
 */
export function useEdit<T>(stored: T): [T, (value: T) => void] {
  const [edit, setEdit] = useState<{ over: T; value: T } | null>(null);
  const value = edit !== null && Object.is(edit.over, stored) ? edit.value : stored;
  const set = useCallback((v: T) => setEdit({ over: stored, value: v }), [stored]);
  return [value, set];
}
