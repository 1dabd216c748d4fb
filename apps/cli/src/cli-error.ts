/** An error the user can fix: printed as one line, exit code 2 (or the code given, e.g. 1 for a failed verification). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
