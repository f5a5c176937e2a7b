// data_validation: `sheet.data_validations.dataValidation` as openpyxl reads it. Every validator must match at least
// one entry of dv_props (all of the entry's attributes through the rule matcher), and there must be at least as many
// validators as entries.
import { matchValueToRule, type ValueRule } from '../rule-match.ts';
import { child, children } from '../../formats/xlsx/xml.ts';
import type { Worksheet } from '../../formats/xlsx/sheet-xml.ts';
import { MetricOptionsError } from '../../errors.ts';

export type Validator = Record<string, string | boolean | null>;

const BOOLEAN_ATTRS = ['allowBlank', 'showDropDown', 'showInputMessage', 'showErrorMessage'];
const TEXT_ATTRS = ['type', 'operator', 'error', 'errorTitle', 'errorStyle', 'prompt', 'promptTitle', 'imeMode'];

export function readValidators(sheet: Worksheet): Validator[] {
  return children(child(sheet.meta, 'dataValidations'), 'dataValidation').map((dv) => {
    const validator: Validator = {};
    const ranges = dv.attrs.sqref ?? '';
    validator.sqref = validator.ranges = validator.cells = ranges;
    for (const attr of BOOLEAN_ATTRS) {
      const v = dv.attrs[attr];
      validator[attr] = v === undefined ? false : !['false', 'f', '0'].includes(v.toLowerCase());
    }
    for (const attr of TEXT_ATTRS) {
      const v = dv.attrs[attr];
      // openpyxl NoneSet: "none" reads as None
      validator[attr] = v === undefined || (v === 'none' && attr !== 'error' && attr !== 'prompt' && attr !== 'errorTitle' && attr !== 'promptTitle') ? null : v;
    }
    validator.formula1 = child(dv, 'formula1')?.text ?? null;
    validator.formula2 = child(dv, 'formula2')?.text ?? null;
    return validator;
  });
}

export function checkValidators(validators: Validator[], dvProps: Record<string, ValueRule>[]): { pass: boolean; failing?: Validator } {
  if (validators.length < dvProps.length) return { pass: false };
  for (const validator of validators) {
    const matches = dvProps.some((props) =>
      Object.entries(props).every(([attr, rule]) => {
        if (!(attr in validator)) throw new MetricOptionsError(`data_validation: unknown attribute "${attr}" ('DataValidation' object has no attribute)`);
        return matchValueToRule(validator[attr], rule);
      }),
    );
    if (!matches) return { pass: false, failing: validator };
  }
  return { pass: true };
}
