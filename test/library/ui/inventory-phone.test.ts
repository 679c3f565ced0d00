// The inventory walk in the phone setting (see inventory-walk.ts).
import { describeInventoryWalk } from './inventory-walk.js';

describeInventoryWalk('phone');
