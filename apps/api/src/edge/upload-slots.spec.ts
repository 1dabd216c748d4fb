import { UploadSlots } from './upload-slots';

describe('UploadSlots', () => {
  it('gives each key its limit and takes nothing when one key is full', () => {
    const slots = new UploadSlots();
    const keys = (user: string) => [{ key: 'address:1', limit: 3 }, { key: `user:${user}`, limit: 2 }];
    const a1 = slots.acquire(keys('a'));
    const a2 = slots.acquire(keys('a'));
    expect(a1 && a2).toBeTruthy();
    expect(slots.acquire(keys('a'))).toBeNull(); // user a is full
    expect(slots.count('address:1')).toBe(2); // the refused one took no address slot
    const b1 = slots.acquire(keys('b'));
    expect(b1).not.toBeNull();
    expect(slots.acquire(keys('b'))).toBeNull(); // the address is full now
    a1?.();
    a1?.(); // releasing twice gives back one slot only
    expect(slots.count('address:1')).toBe(2);
    expect(slots.acquire(keys('b'))).not.toBeNull();
  });
});
