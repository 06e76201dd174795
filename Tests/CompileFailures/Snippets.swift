// Statements the Swift FSM guide marks "does not compile" (and a few more of the same family).
// check.sh type-checks each section below, after Prelude.swift, against the built module:
// every `fails:` section must be rejected on one of its own lines, every `compiles:` section
// must type-check, so that a typo in the prelude cannot make the failures pass vacuously.

// ---- compiles: the same constructs used correctly
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) {
        matching(A.x, or: A.y) | when(.coin) | then(.unlocked) | unlock
        when(.pass) {
            matching(B.x) | then(.locked)
            then(.alarming) { matching(B.y) | unlock }
        }
        then(.unlocked) { when(.reset) | unlock }
        actions(unlock) { when(.coin) | then(.unlocked) }
    }
}

// ---- fails: or-with-different-predicate-types
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { matching(A.x, or: B.x) | when(.coin) | then(.unlocked) }
}

// ---- fails: when-inside-when-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) { when(.pass) | then(.locked) } }
}

// ---- fails: when-block-inside-when-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) { when(.pass) { matching(A.x) | then(.locked) } } }
}

// ---- fails: matching-when-inside-when-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) { matching(A.x) | when(.pass) | then(.locked) } }
}

// ---- fails: when-inside-matching-inside-when-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) { matching(A.x) { when(.pass) | then(.locked) } } }
}

// ---- fails: then-inside-then-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { then(.unlocked) { then(.locked) { matching(A.x) | unlock } } }
}

// ---- fails: matching-then-inside-then-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { then(.unlocked) { matching(A.x) | then(.locked) | unlock } }
}

// ---- fails: then-inside-matching-inside-then-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { then(.unlocked) { matching(A.x) { then(.locked) | unlock } } }
}

// ---- fails: bare-then-rows-inside-when-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) {
        when(.coin) {
            then(.unlocked) | unlock
            then(.locked) | unlock
        }
    }
}

// ---- fails: block-after-then-pipe
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) | then(.unlocked) { } }
}

// ---- fails: actions-block-after-pipe
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) | then(.unlocked) | actions(unlock) { } }
}

// ---- fails: when-block-after-matching-pipe
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { matching(A.x) | when(.coin) { } }
}

// ---- fails: control-flow-in-a-block
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) {
        if something {
            when(.pass) | then(.unlocked)
        } else {
            when(.pass) | then(.alarming)
        }
    }
}

// ---- fails: actions-block-at-table-level
_ = try Schema<Turnstile>(initial: .locked) {
    actions(unlock) { when(.coin) | then(.unlocked) }
}

// ---- fails: then-without-when
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { then(.locked) | unlock }
}

// ---- fails: when-and-matching-out-of-order
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) | matching(A.x) | then(.locked) | unlock }
}

// ---- fails: then-before-when
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { then(.locked) | when(.coin) }
}

// ---- fails: define-without-block-or-super-state
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked)
}

// ---- fails: when-without-then-in-define
_ = try Schema<Turnstile>(initial: .locked) {
    define(.locked) { when(.coin) | unlock }
}
