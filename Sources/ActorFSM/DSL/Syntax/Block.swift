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
    public struct Block<Definition: MachineDefinition, Shape: BlockShape>: Sendable {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        var fragments: [Fragment<Definition>]
        /// Where the block was opened, for the error that it is empty.
        var emptyBlockLocations: [SourceLocation] = []

        init(fragments: [Fragment<Definition>], emptyBlockLocations: [SourceLocation] = []) {
            self.fragments = fragments
            self.emptyBlockLocations = emptyBlockLocations
        }

        /// The statements of `block`, each prefixed by `context` (outer context first).
        init<Inner>(context: Fragment<Definition>, wrapping block: Block<Definition, Inner>) {
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
    public enum RowBuilder<Definition: MachineDefinition, Shape: BlockShape> {
        /// The definition's state type.
        public typealias State = Definition.State
        /// The definition's event type.
        public typealias Event = Definition.Event
        /// Joins the statements of a block.
        public static func buildBlock(_ parts: Block<Definition, Shape>...) -> Block<Definition, Shape> {
            Block(fragments: parts.flatMap(\.fragments), emptyBlockLocations: parts.flatMap(\.emptyBlockLocations))
        }

        /// A nested context block of the same shape.
        public static func buildExpression(_ block: Block<Definition, Shape>) -> Block<Definition, Shape> {
            block
        }
    }
}

extension Syntax.RowBuilder where Shape == Syntax.Complete {
    /// A complete transition.
    public static func buildExpression(_ row: Syntax.Row<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }
}

extension Syntax.RowBuilder where Shape == Syntax.MissingWhen {
    /// `matching(…) | then(…)`, inside a `when { }` block.
    public static func buildExpression(_ row: Syntax.MatchingThen<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }
}

extension Syntax.RowBuilder where Shape == Syntax.MissingThen {
    /// `when(…)`, inside a `then { }` block.
    public static func buildExpression(_ row: Syntax.When<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }

    /// `matching(…) | when(…)`, inside a `then { }` block.
    public static func buildExpression(_ row: Syntax.MatchingWhen<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }

    /// `when(…) | actions`, inside a `then { }` block.
    public static func buildExpression(_ row: Syntax.WhenActions<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }
}

extension Syntax.RowBuilder where Shape == Syntax.MissingWhenAndThen {
    /// `matching(…)`, inside blocks that supply both `when` and `then`.
    public static func buildExpression(_ row: Syntax.Matching<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }

    /// `matching(…) | actions`, inside blocks that supply both `when` and `then`.
    public static func buildExpression(_ row: Syntax.MatchingActions<Definition>) -> Syntax.Block<Definition, Shape> {
        .init(fragments: [row.fragment])
    }
}
