// `wait` orders two calls (seed 004's `pop_and_wait`): the second instance of `@pop` gets its
// queue id only once the first one's result exists. `@pop` has a body here (it returns
// `q * q + 1`), so the instances run inline. Returns `x - y` = 0 and the end token; any tokens.

handshake.func @pop(%q: channel<i32>, %start: control) -> (channel<i32>, control) {
  %qf:2 = fork [2] %q : channel<i32>
  %sq = arith.muli %qf#0, %qf#1 : channel<i32>
  %src = source : control
  %one = constant %src {value = 1 : i32} : control, channel<i32>
  %r = arith.addi %sq, %one : channel<i32>
  end %r, %start : channel<i32>, control
}

handshake.func @pop_and_wait(%queueID: channel<i32>, %start: control) -> (channel<i32>, control) {
  %q:2 = fork [2] %queueID : channel<i32>
  %s:3 = fork [3] %start : control
  %x, %c0 = instance @pop(%q#0, %s#0) : (channel<i32>, control) -> (channel<i32>, control)
  %xf:2 = fork [2] %x : channel<i32>
  %q1 = wait %xf#0, %q#1 : (channel<i32>, channel<i32>) -> channel<i32>
  %y, %c1 = instance @pop(%q1, %s#1) : (channel<i32>, control) -> (channel<i32>, control)
  %res = arith.subi %xf#1, %y : channel<i32>
  %done = join %c0, %c1, %s#2 : control, control, control
  end %res, %done : channel<i32>, control
}
