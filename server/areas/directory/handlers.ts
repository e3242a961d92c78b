// The directory's operations: cost centers, suppliers and categories.
import { handlers as costCenters } from './cost-centers/handlers.js';
import { handlers as suppliers } from './suppliers/handlers.js';
import { handlers as categories } from './categories/handlers.js';

export const handlers = { ...costCenters, ...suppliers, ...categories };
