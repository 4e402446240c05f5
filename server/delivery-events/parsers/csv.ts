/**
 * RFC 4180 CSV as PowerMTA writes its accounting files: comma-separated, records ended by CRLF or LF,
 * fields quoted with "" when they hold a comma, a quote or a line break ("" inside is one quote).
 * One pass over the text, no patterns. Blank lines are skipped. A record longer than `maxRecordChars`
 * is cut off there and marked, so one runaway quote cannot swallow the rest of the batch unseen.
 */
export interface CsvRecord {
  fields: string[];
  /** Set when the record could not be read as CSV (an unterminated quote, a record too long). */
  error?: string;
}

export function parseCsv(text: string, maxRecordChars = 16_384): CsvRecord[] {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let started = false;
  let length = 0;
  let error: string | undefined;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    const blank = fields.length === 1 && fields[0] === '' && !error;
    if (!blank) records.push(error ? { fields, error } : { fields });
    fields = [];
    length = 0;
    error = undefined;
    started = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    length++;
    if (length > maxRecordChars && !error) error = `Record longer than ${maxRecordChars} characters`;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          if (!error) field += '"';
          i++;
        } else quoted = false;
      } else if (!error) field += c;
      continue;
    }
    if (c === '"' && !started) {
      quoted = true;
      started = true;
    } else if (c === ',') {
      endField();
      started = false;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else {
      if (!error) field += c;
      started = true;
    }
  }
  if (quoted) error = 'A quoted field is not closed';
  if (field !== '' || fields.length > 0 || error) endRecord();
  return records;
}
