/**
 * The stock domain's public face for other domains' server code (queries, commands, server-side
 * rules): only what they use. Browser code imports index.ts.
 */

export { canBuyOnline, canReserve, isForSale, MIN_RESERVE_PRICE } from './car-page.rules';
export { cardPhotoSources } from './components/car-image';
export { carDisplayName, facetValueLabel, makeDisplayName } from './search/search.labels';
export { listedMakesAndModels, resolveSearchListing, type SearchListing } from './search/search.listing';
export { scopeForTenant, scopeWhere } from './search/search.scope';
export { type CarJson, findCarJson } from './stock.api';
export { StockInputError, upsertCar, withdrawCar } from './stock.commands';
export { getCarBySlug, getSoldCarBySlug, stockListingVersion, visibleCarsWhere } from './stock.queries';
export { carAlertState, isValidCarSlug, MIN_SHOWN_PRICE, type CarAlertState } from './stock.rules';
export type { CarDetail, CarStatus, CarType, ItemType } from './stock.types';
export { carInputSchema, carSlugSchema, csvRecordToInput, fieldErrors, stockImportRowSchema } from './stock.validation';
export { matchCars, searchStock } from './search/search.service';
export { parseSearchParams, searchParamsFor, type SearchState } from './search/search.validation';
export { engineFilters, visitorState } from './search/search.view';
export { MAKE_MODEL_SEPARATOR, type SearchFilters } from './search/search.types';
