/** Ids under which this package's browser worker entry registers its modules. */
export const OCR_TASK_ID = 'docmill:ocr';
export const OCR_STAGE_ID = 'docmill:ocr-stage';
