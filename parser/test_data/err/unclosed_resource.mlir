// A resource block that is never closed.
module {
}
{-# dialect_resources: { builtin: { } }
