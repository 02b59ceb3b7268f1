// Package site is the site's frame, below every page: the pages' paths,
// the shell every page draws in (header, language control, foot), the
// page data a server embeds in a page and a page reads or fetches, and
// the notices of an update and of a crash. The playground, the lessons
// and the plain pages all stand on it; it knows none of them.
package site
