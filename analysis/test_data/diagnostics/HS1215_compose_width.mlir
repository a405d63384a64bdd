// compose packs a channel's signals: the data and every downstream extra into one bus, or the
// extras grouped into one signal per direction; decompose undoes it.
handshake.func @compose(%a: channel<i32, [i2, i4]>, %start: control) -> (channel<i36>, control) {
  // expected-error @+1 {{HS1215: `compose` of `<i32, [i2, i4]>` gives `<i38>` (data and downstream signals in one bus) or `<i32, [i6]>` (signals grouped by direction), not `<i36>`}}
  %0 = compose %a : channel<i32, [i2, i4]> -> channel<i36>
  end %0, %start : channel<i36>, control
}

// -----

// Upstream signals are grouped on their own, never with the data.
handshake.func @upstream(%a: channel<i32, [i2, i4, (U) i4, (U) i8]>, %start: control) -> (channel<i32, [i18]>, control) {
  // expected-error @+1 {{HS1215: `compose` of `<i32, [i2, i4, i4 (U), i8 (U)]>` gives `<i38, [i4 (U), i8 (U)]>` (data and downstream signals in one bus) or `<i32, [i6, i12 (U)]>` (signals grouped by direction), not `<i32, [i18]>`}}
  %0 = compose %a : channel<i32, [i2, i4, (U) i4, (U) i8]> -> channel<i32, [i18]>
  end %0, %start : channel<i32, [i18]>, control
}

// -----

handshake.func @decompose(%a: !handshake.channel<i40>, %start: !handshake.control<>) -> (!handshake.channel<i32, [i2, i4]>, !handshake.control<>) {
  // expected-error @+1 {{HS1215: `decompose` of `<i32, [i2, i4]>` gives `<i38>` (data and downstream signals in one bus) or `<i32, [i6]>` (signals grouped by direction), not `<i40>`}}
  %0 = decompose %a : <i40> -> <i32, [i2, i4]>
  end %0, %start : <i32, [i2, i4]>, <>
}

// -----

// Valid: the three forms of the design document, and back.
handshake.func @valid(%a: channel<i32, [i2, i4]>, %b: channel<i32, [i2, i4]>, %c: channel<i32, [i2, i4, (U) i4, (U) i8]>, %start: control) -> (channel<i32, [i2, i4]>, channel<i32, [i6]>, channel<i32, [i2, i4, (U) i4, (U) i8]>, control) {
  %0 = compose %a : channel<i32, [i2, i4]> -> channel<i38>
  %1 = decompose %0 : channel<i38> -> channel<i32, [i2, i4]>
  %2 = compose %b : channel<i32, [i2, i4]> -> channel<i32, [i6]>
  %3 = compose %c : channel<i32, [i2, i4, (U) i4, (U) i8]> -> channel<i32, [i6, (U) i12]>
  %4 = decompose %3 : channel<i32, [i6, (U) i12]> -> channel<i32, [i2, i4, (U) i4, (U) i8]>
  end %1, %2, %4, %start : channel<i32, [i2, i4]>, channel<i32, [i6]>, channel<i32, [i2, i4, (U) i4, (U) i8]>, control
}
