/** A mistake in a command's command line (`flagpole export|import|policy …`): the message and the usage, exit status 2. */
export class UsageError extends Error {}
