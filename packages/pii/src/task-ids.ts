/** Ids under which this package's browser worker entry registers its modules. */
export const NER_TASK_ID = 'docmill:pii-ner';
export const PII_STAGE_ID = 'docmill:pii-stage';
