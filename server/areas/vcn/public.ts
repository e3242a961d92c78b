// What the start-up uses of the vcn area: the expiry of the cards whose last day has passed.
export { recordExpiries } from './store/expiry.js';
