import { defaultViews, goesOn, oldestFirst } from './phase-boards';
import { viewKey } from './view';
import { defined } from '../../../test/support/defined';

describe('the order and the stopping of a phase computation (issue #28)', () => {
  const views = defaultViews(['bleu', 'chrf', 'ter']);
  const at = (s: number) => new Date(1_000_000 + s * 1000);

  it('keeps the default board first and takes the other views from the oldest stored board, never-stored ones first', () => {
    const newest = new Map(views.map((v, i) => [viewKey(v), at(100 - i)]));
    const chrfAll = defined(views.find((v) => v.metric === 'chrf' && v.entries === 'all'), 'chrf all');
    newest.delete(viewKey(chrfAll));
    const ordered = oldestFirst(views, newest);
    expect(ordered[0]).toEqual(views[0]);
    expect(ordered[1]).toEqual(chrfAll);
    // then by age: the later a view comes in defaultViews here, the older its board
    expect(ordered.slice(2).map((v) => `${v.metric}/${v.entries}`)).toEqual(
      views.slice(1).filter((v) => v !== chrfAll).reverse().map((v) => `${v.metric}/${v.entries}`),
    );
    expect(new Set(ordered)).toEqual(new Set(views));
  });

  it('keeps the given order when no board is stored (stable)', () => {
    expect(oldestFirst(views, new Map())).toEqual(views);
    expect(oldestFirst([], new Map())).toEqual([]);
  });

  it('goes on while current; during a burst a default-views computation does one view after the default one; a drop stops', () => {
    expect(goesOn('current', true, 3)).toBe(true);
    expect(goesOn('current', false, 1)).toBe(true);
    expect(goesOn('finish-view', true, 1)).toBe(true);
    expect(goesOn('finish-view', true, 2)).toBe(false);
    // views an organiser asked for: the one in progress only
    expect(goesOn('finish-view', false, 1)).toBe(false);
    expect(goesOn('drop', true, 1)).toBe(false);
  });
});
