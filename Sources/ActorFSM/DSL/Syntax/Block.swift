extension Syntax {
    /// Marks what the statements of a block still lack. The DSL's own types conform.
    public protocol BlockShape {}
    /// Statements that are complete transitions (`when | then`), as in `define { }`.
    public enum Complete: BlockShape {}
    /// Statements without a `when`, as in `when(.coin) { matching(P.a) | then(.b) }`.
    public enum MissingWhen: BlockShape {}
    /// Statements without a `then`, as in `then(.unlocked) { when(.coin) | thankyou }`.
    public enum MissingThen: BlockShape {}
    /// Statements with neither, as in `when(.pass) { then(.b) { matching(P.a) | smile } }`.
    public enum MissingWhenAndThen: BlockShape {}

    /// The statements of a context block, with the block's context applied.
    public struct Block<State: Sendable, Event: Sendable, Shape: BlockShape>: Sendable {
        var fragments: [Fragment<State, Event>]
        /// Where the block was opened, for the error that it is empty.
        var emptyBlockLocations: [SourceLocation] = []

        init(fragments: [Fragment<State, Event>], emptyBlockLocations: [SourceLocation] = []) {
            self.fragments = fragments
            self.emptyBlockLocations = emptyBlockLocations
        }

        /// The statements of `block`, each prefixed by `context` (outer context first).
        init<Inner>(context: Fragment<State, Event>, wrapping block: Block<State, Event, Inner>) {
            fragments = block.fragments.map { inner in
                var combined = context.followed(by: inner)
                combined.location = inner.location
                combined.isOverride = context.isOverride || inner.isOverride
                return combined
            }
            emptyBlockLocations = block.reportingEmptiness(at: context.location).emptyBlockLocations
        }

        /// This block, recording `location` as an empty block if nothing inside it did already.
        func reportingEmptiness(at location: SourceLocation) -> Block {
            guard fragments.isEmpty, emptyBlockLocations.isEmpty else { return self }
            return Block(fragments: [], emptyBlockLocations: [location])
        }
    }

    /// Collects the statements of a context block.
    @resultBuilder
    public enum RowBuilder<State: Sendable, Event: Sendable, Shape: BlockShape> {
        /// Joins the statements of a block.
        public static func buildBlock(_ parts: Block<State, Event, Shape>...) -> Block<State, Event, Shape> {
            Block(fragments: parts.flatMap(\.fragments), emptyBlockLocations: parts.flatMap(\.emptyBlockLocations))
        }

        /// A nested context block of the same shape.
        public static func buildExpression(_ block: Block<State, Event, Shape>) -> Block<State, Event, Shape> {
            block
        }
    }
}

extension Syntax.RowBuilder where Shape == Syntax.Complete {
    /// A complete transition.
    public static func buildExpression(_ row: Syntax.Row<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }
}

extension Syntax.RowBuilder where Shape == Syntax.MissingWhen {
    /// `matching(…) | then(…)`, inside a `when { }` block.
    public static func buildExpression(_ row: Syntax.MatchingThen<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }
}

extension Syntax.RowBuilder where Shape == Syntax.MissingThen {
    /// `when(…)`, inside a `then { }` block.
    public static func buildExpression(_ row: Syntax.When<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }

    /// `matching(…) | when(…)`, inside a `then { }` block.
    public static func buildExpression(_ row: Syntax.MatchingWhen<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }

    /// `when(…) | actions`, inside a `then { }` block.
    public static func buildExpression(_ row: Syntax.WhenActions<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }
}

extension Syntax.RowBuilder where Shape == Syntax.MissingWhenAndThen {
    /// `matching(…)`, inside blocks that supply both `when` and `then`.
    public static func buildExpression(_ row: Syntax.Matching<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }

    /// `matching(…) | actions`, inside blocks that supply both `when` and `then`.
    public static func buildExpression(_ row: Syntax.MatchingActions<State, Event>) -> Syntax.Block<State, Event, Shape> {
        .init(fragments: [row.fragment])
    }
}
