// The inventory walk in the light setting (see inventory-walk.ts).
import { describeInventoryWalk } from './inventory-walk.js';

describeInventoryWalk('light');
