// The inventory walk in the dark setting (see inventory-walk.ts).
import { describeInventoryWalk } from './inventory-walk.js';

describeInventoryWalk('dark');
