/** A classroom study as data and the field scenario its participants' runs use. */
export { StudySpecSchema, fieldScenario, type StudySpec, type StudySpecInput } from './study';
