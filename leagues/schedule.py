# Placeholder until the scheduling module lands (issue 13); removed before that merge.
