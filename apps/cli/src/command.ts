/** One `podium` subcommand: parses its own flags, returns the JSON value printed on stdout. */
export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[]): Promise<unknown>;
}
