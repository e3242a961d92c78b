// What other areas may read of the directory: whether a company's categories and cost centers exist,
// and the display names of a statement row's references.
export {
  categoriesAndCostCenters,
  categoryIdsIn,
  costCenterIdsIn,
  categoryNames,
  costCenterNames,
  withDisplayNames,
} from './references.js';
