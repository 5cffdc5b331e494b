/** Answer disclosure: one detector for the leakage scorer and the simulated learner (detect.ts). */
export { disclosuresIn, DisclosureWindow, DISCLOSURE_WINDOW, type Disclosure, type DisclosableItem, type WindowDisclosure } from './detect';
export { readable, romanValue } from './readable';
