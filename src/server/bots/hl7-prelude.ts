// HL7 v2 inside the bot sandbox (issue #10 Bots and Agents: existing Medplum bots run unchanged).
// Medplum hands a bot an HL7 v2 body (content type x-application/hl7-v2+er7) as an Hl7Message of
// @medplum/core, and a bot answering with an Hl7Message (typically `event.input.buildAck()`) has
// it sent back as HL7 text. This is JavaScript evaluated inside QuickJS, before the bot: the read
// side of @medplum/core's Hl7Context, Hl7Message, Hl7Segment and Hl7Field with the same names,
// 1-based getField/getComponent, MSH numbering (MSH-1 is the field separator) and buildAck.

export const HL7_V2_CONTENT_TYPE = 'x-application/hl7-v2+er7';

export const HL7_PRELUDE = `
class Hl7Context {
  constructor(segmentSeparator = '\\r', fieldSeparator = '|', componentSeparator = '^', repetitionSeparator = '~', escapeCharacter = '\\\\', subcomponentSeparator = '&') {
    Object.assign(this, { segmentSeparator, fieldSeparator, componentSeparator, repetitionSeparator, escapeCharacter, subcomponentSeparator });
  }
  getMsh1() { return this.fieldSeparator; }
  getMsh2() { return this.componentSeparator + this.repetitionSeparator + this.escapeCharacter + this.subcomponentSeparator; }
}
class Hl7Field {
  constructor(components, context = new Hl7Context()) { this.context = context; this.components = components; }
  get(component, subcomponent, repetition = 0) {
    let value = (this.components[repetition] || [])[component] || '';
    if (subcomponent !== undefined) value = value.split(this.context.subcomponentSeparator)[subcomponent] || '';
    return value;
  }
  getComponent(component, subcomponent, repetition = 0) { return this.get(component - 1, subcomponent, repetition); }
  toString() { return this.components.map((r) => r.join(this.context.componentSeparator)).join(this.context.repetitionSeparator); }
  static parse(text, context = new Hl7Context()) {
    return new Hl7Field(String(text).split(context.repetitionSeparator).map((r) => r.split(context.componentSeparator)), context);
  }
}
class Hl7Segment {
  constructor(fields, context = new Hl7Context()) {
    this.context = context;
    this.fields = fields.map((f) => (f instanceof Hl7Field ? f : Hl7Field.parse(f, context)));
    this.name = this.fields[0].components[0][0];
  }
  get(index) { return this.fields[index]; }
  getField(index) {
    if (this.name === 'MSH') {
      if (index === 1) return new Hl7Field([[this.context.getMsh1()]], this.context);
      if (index === 2) return new Hl7Field([[this.context.getMsh2()]], this.context);
      return this.fields[index - 1] || new Hl7Field([['']], this.context);
    }
    return this.fields[index] || new Hl7Field([['']], this.context);
  }
  getComponent(fieldIndex, component, subcomponent, repetition) { return this.getField(fieldIndex).getComponent(component, subcomponent, repetition); }
  toString() {
    if (this.name === 'MSH') return ['MSH', this.context.getMsh2(), ...this.fields.slice(2).map(String)].join(this.context.fieldSeparator);
    return this.fields.map(String).join(this.context.fieldSeparator);
  }
  static parse(text, context = new Hl7Context()) { return new Hl7Segment(String(text).split(context.fieldSeparator), context); }
}
class Hl7Message {
  constructor(segments, context = new Hl7Context()) {
    this.context = context;
    this.segments = segments.map((s) => (s instanceof Hl7Segment ? s : Hl7Segment.parse(s, context)));
  }
  get header() { return this.segments[0]; }
  get(index) { return this.getSegment(index); }
  getAll(name) { return this.getAllSegments(name); }
  getSegment(index) { return typeof index === 'number' ? this.segments[index] : this.segments.find((s) => s.name === index); }
  getAllSegments(name) { return this.segments.filter((s) => s.name === name); }
  toString() { return this.segments.map(String).join(this.context.segmentSeparator); }
  getAckType() {
    const code = (this.getSegment('MSA') ? this.getSegment('MSA').getField(1).toString() : '').toUpperCase();
    return ['AA', 'AE', 'AR', 'CA', 'CE', 'CR'].includes(code) ? code : undefined;
  }
  buildAck(options) {
    const msh = this.header;
    const field = (n) => (msh ? msh.getField(n).toString() : '');
    const now = new Date();
    const pad = (n, w = 2) => String(n).padStart(w, '0');
    const timestamp = now.getUTCFullYear() + pad(now.getUTCMonth() + 1) + pad(now.getUTCDate()) + pad(now.getUTCHours()) + pad(now.getUTCMinutes()) + pad(now.getUTCSeconds());
    const trigger = msh ? msh.getComponent(9, 2) : '';
    const type = trigger ? ['ACK', trigger, 'ACK'].join(this.context.componentSeparator) : 'ACK';
    return new Hl7Message([
      new Hl7Segment(['MSH', this.context.getMsh2(), field(5), field(6), field(3), field(4), timestamp, '', type, String(now.getTime()), field(11) || 'P', field(12) || '2.5.1'], this.context),
      new Hl7Segment(['MSA', (options && options.ackCode) || 'AA', field(10)], this.context),
    ], this.context);
  }
  static parse(text) {
    text = String(text);
    if (!text.startsWith('MSH')) throw new Error('Invalid HL7 message: it must start with MSH');
    const context = new Hl7Context('\\r', text.charAt(3), text.charAt(4), text.charAt(5), text.charAt(6), text.charAt(7));
    return new Hl7Message(text.split(/[\\r\\n]+/).filter((line) => line !== ''), context);
  }
}
globalThis.Hl7Context = Hl7Context;
globalThis.Hl7Field = Hl7Field;
globalThis.Hl7Segment = Hl7Segment;
globalThis.Hl7Message = Hl7Message;
`;
