// An alias without a value.
#a =
!b = !handshake.channel<i32>
