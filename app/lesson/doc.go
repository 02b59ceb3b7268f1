// Package lesson is the course in the browser: a lesson's page (its
// server-rendered text between the live blocks, previous and next), its
// thought question cards (graded by lessons/answer from the run), its
// exercises (decided by lessons/exercise), its presenter view and its
// side of a class, the lessons' catalogue and the review of the
// questions a learner got wrong or was unsure of. Its live blocks are
// app/playground's ScenarioPlayground; what the learner did is
// app/progress's.
package lesson
