//! Gemji (after the DreiKopf team's report): gems on a grid of up to
//! 10 by 10 cells. The player moves one red, yellow, blue or purple gem one
//! tile to an empty orthogonal neighbour; the moved gem's effect then
//! activates, and every gem an effect moves activates in turn. The level
//! is won when every finish holds a gem (of the finish's type, where it
//! has one).
//!
//! The rules as the report gives them:
//! - red pushes the gems around it one tile away;
//! - yellow pulls the gems two tiles away one tile closer;
//! - blue returns to where it started after being moved;
//! - purple swaps places with the gem that triggered it; moved by the
//!   player, with the nearest gem in clockwise order;
//! - white and grey gems cannot be moved by the player, only by effects;
//!   grey gems trigger nothing, white gems do;
//! - black gems are fixed obstacles.
//!
//! Where the report is silent, this module decides (each decision has a
//! test named `decision_...` in [`rules`]):
//! 1. "Around" is the four orthogonal neighbours; "two tiles away" is two
//!    cells along a row or column. Diagonals never count.
//! 2. A player move goes to an empty cell on the board; anything else is
//!    not a legal move.
//! 3. A push moves a gem one tile straight away from the red gem, only
//!    into an empty cell on the board: a gem against the edge or with a gem
//!    behind it stays (nothing is pushed off the board, pushes do not
//!    chain through rows of gems). Black gems are never pushed.
//! 4. A pull moves a gem two tiles away into the empty cell between it and
//!    the yellow gem; with that cell occupied nothing moves. Black gems are
//!    never pulled.
//! 5. Blue, when moved (by the player or by an effect), returns to the
//!    cell it was moved from if that cell is still empty. A player's move
//!    of a blue gem therefore changes nothing, and a blue gem that is
//!    pushed or pulled springs back.
//! 6. Purple, moved by an effect, swaps places with the gem whose effect
//!    moved it. Moved by the player, it swaps with the nearest gem other
//!    than black: rings of growing Chebyshev distance around its new cell,
//!    each walked clockwise from the cell straight above it; black gems
//!    are skipped (purple cannot swap with black). The gem it swapped with
//!    has been moved by an effect and activates (unless it already has).
//! 7. Chains resolve breadth first: a queue holds the gems to activate,
//!    the player's gem first; an effect acts on its neighbours clockwise
//!    from up (up, right, down, left), and each gem it moves joins the end
//!    of the queue. Each gem activates at most once per turn (so every turn
//!    ends).
//! 8. White gems activate when moved (their effect is empty, but they
//!    count as an activated effect in the difficulty score); grey gems
//!    never activate.
//! 9. Any gem, white and grey included, fills a finish without a type.
//!
//! Strategies and what they guarantee: [`solve::solve`] finds a shortest
//! solution by iterative deepening with a depth-keyed table of exact
//! position keys and proves it optimal when it finishes (or proves the
//! level unsolvable). [`generate::generate`] keeps a random
//! level only when the solver proved its minimum in the asked range.

pub mod cli;
pub mod generate;
pub mod parse;
pub mod rules;
pub mod solve;

pub use parse::{format_level, parse_level, ParseError};
pub use rules::{Dir, Finish, Gem, Level, Move, State};
