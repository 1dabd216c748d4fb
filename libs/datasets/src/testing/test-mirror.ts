// Specs of this library read the offline mirror: $PODIUM_DATA_MIRROR, else
// <repo>/../shared/data/mirror (where CI keeps it). Tests only; the product never reads ../shared.
import { resolve } from 'node:path';

export const TEST_MIRROR = process.env['PODIUM_DATA_MIRROR']?.trim() || resolve(__dirname, '..', '..', '..', '..', '..', 'shared', 'data', 'mirror');
