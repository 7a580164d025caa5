import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { irpError, type IrpErrorDetail } from './errors';

/**
 * INV-01, the e-invoice schema notified by GSTN for the IRP, version 1.1 (the one API 1.03
 * takes), written out as JSON Schema draft-07 in inv-01-schema.json: its fields, types, lengths,
 * patterns, enums and required lists. What the schema cannot say (totals, dates against the
 * clock, GSTIN check characters) rules.ts checks.
 */
const schema: object = JSON.parse(
  readFileSync(new URL('./inv-01-schema.json', import.meta.url), 'utf8'),
);

/** An INV-01 document past the schema: the fields the sandbox reads, as the schema names them. */
export interface Inv01 {
  Version: '1.1';
  TranDtls: { SupTyp: string; EcmGstin?: string };
  DocDtls: { Typ: 'INV' | 'CRN' | 'DBN'; No: string; Dt: string };
  SellerDtls: { Gstin: string };
  BuyerDtls: { Gstin: string };
  ShipDtls?: { Gstin?: string };
  ItemList: { HsnCd: string; AssAmt: number; TotItemVal: number }[];
  ValDtls: {
    AssVal: number;
    CgstVal?: number;
    SgstVal?: number;
    IgstVal?: number;
    CesVal?: number;
    StCesVal?: number;
    Discount?: number;
    OthChrg?: number;
    RndOffAmt?: number;
    TotInvVal: number;
  };
}

const validate = new Ajv({ allErrors: true, strict: true }).compile<Inv01>(schema);

const describe = (error: ErrorObject) => {
  const field = error.instancePath.slice(1).replaceAll('/', '.') || 'the document';
  const extra =
    error.keyword === 'additionalProperties'
      ? ` (${String(error.params.additionalProperty)})`
      : error.keyword === 'enum'
        ? ` (${(error.params.allowedValues as unknown[]).join(', ')})`
        : '';
  return `${field} ${error.message ?? 'is not valid'}${extra}`;
};

/** The document's departures from INV-01 1.1, each as the IRP words a refusal; none: valid. */
export function schemaProblems(document: unknown): IrpErrorDetail[] {
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => irpError('schema', describe(error)));
}
