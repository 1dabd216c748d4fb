import {
  type Dataset,
  DataFetchError,
  datasetBytes,
  datasetCacheStatus,
  describeSource,
  fetchDatasetEntry,
  getDataset,
  licenceNote,
  listDatasets,
  UnknownDatasetError,
} from '@podium/datasets';
import { CliError } from '../cli-error';
import type { CliCommand } from '../command';
import { parseFlagsAndPositionals } from '../flags';
import { announceFetch, cliDataOptions } from './data-options';

const USAGE = `usage: podium data list [--cache DIR]
       podium data fetch NAME... | --all [--cache DIR] [--mirror DIR|URL]
       podium data path NAME [--cache DIR] [--mirror DIR|URL]

Public data sets Podium uses (the demo task, WMT17 test sets with human DA scores, MENLI
robustness suites), fetched from their upstream (github.com/cyr19/MENLI at a fixed commit,
MIT licence, Copyright (c) 2022 Yanran Chen) and cached; nothing is committed to Podium.

  list                 every data set: description, size, licence, whether it is cached
  fetch NAME...        download into the cache: resumable (HTTP Range), each file's size and
                       sha256 checked before it gets its final name; NAME may be a suite id
                       such as builtin:xpaws-de; --all fetches every data set
  path NAME            the cached files of NAME (fetched first when missing)
  --cache DIR          cache folder (default $PODIUM_CACHE, else $XDG_CACHE_HOME/podium,
                       else ~/.cache/podium); files live in DIR/datasets/<repo>/<commit>/<path>
  --mirror DIR|URL     fetch from a mirror laid out like upstream (<repo>/<commit>/<path>)
                       instead of https://raw.githubusercontent.com/ (default $PODIUM_DATA_MIRROR)

stdout: list  {"cacheDir","source","licences":[…],"datasets":[{"name","description","files","bytes","cached",
               "suite","testSet","licence","unverified"}]}
        fetch {"cacheDir","source","fetched":[{"name","root","files","downloadedBytes"}]}
        path  {"name","root","files":{"<upstream path>":"<cached path>"},"source"?,"reference"?,
               "human"?,"systems"?,"suite"?,"nliSet"?,"licenceFile" (null: none upstream)}`;

function lookup(name: string): Dataset {
  try {
    return getDataset(name);
  } catch (err) {
    if (err instanceof UnknownDatasetError) throw new CliError(err.message);
    throw err;
  }
}

async function fetchOne(d: Dataset, o: ReturnType<typeof cliDataOptions>) {
  if (!datasetCacheStatus(d, o).cached) announceFetch(d.name, d.files.length, datasetBytes(d), o);
  try {
    return await fetchDatasetEntry(d, o);
  } catch (err) {
    if (err instanceof DataFetchError) throw new CliError(`${d.name}: ${err.message}`);
    throw err;
  }
}

/** `podium data`: list, fetch and locate the public data sets of the registry. */
export const dataCommand: CliCommand = {
  name: 'data',
  summary: 'list, fetch or locate public data sets (WMT17, MENLI suites) in the cache',
  usage: USAGE,
  async run(argv: string[]): Promise<unknown> {
    const { values, positionals } = parseFlagsAndPositionals(argv, {
      cache: { type: 'string' },
      mirror: { type: 'string' },
      all: { type: 'boolean', default: false },
    });
    const [action, ...names] = positionals;
    const o = cliDataOptions(values);
    const where = { cacheDir: o.cacheDir, source: describeSource(o.source) };
    if (action === 'list') {
      if (names.length > 0 || values.all) throw new CliError(`'data list' takes no names`);
      const all = listDatasets();
      const upstreams = [...new Map(all.map((d) => [d.upstream.repo + d.upstream.commit, d.upstream])).values()];
      return {
        ...where,
        // Where the data comes from and under what licence: the user sees it before fetching.
        licences: upstreams.map((u) => ({ source: `${u.homepage} at commit ${u.commit}`, licence: u.licence, copyright: u.copyright, note: u.note })),
        datasets: all.map((d) => {
          const status = datasetCacheStatus(d, o);
          return {
            name: d.name,
            description: d.description,
            files: d.files.length,
            bytes: datasetBytes(d),
            cached: status.cached,
            ...(d.suite ? { suite: d.suite.id } : {}),
            ...(d.testSet ? { testSet: d.testSet.languagePair } : {}),
            licence: licenceNote(d),
            ...(status.unverified.length > 0 ? { unverified: `${status.unverified.join(', ')}: no checksum recorded yet; pinned (size and sha256) on first download, verified against that pin afterwards` } : {}),
          };
        }),
      };
    }
    if (action === 'fetch') {
      if (values.all && names.length > 0) throw new CliError('give data set names or --all, not both');
      if (!values.all && names.length === 0) throw new CliError(`'data fetch' needs a data set name or --all (see podium data list)`);
      const chosen = values.all ? listDatasets() : names.map(lookup);
      const fetched = [];
      const failed: string[] = [];
      for (const d of chosen) {
        try {
          const r = await fetchOne(d, o);
          fetched.push({ name: r.name, root: r.root, files: r.files.length, downloadedBytes: r.downloadedBytes });
        } catch (err) {
          // --all goes on past a data set that cannot be fetched (a mirror may hold only some).
          if (!values.all || !(err instanceof CliError)) throw err;
          process.stderr.write(`podium data: ${err.message}\n`);
          failed.push(d.name);
        }
      }
      if (failed.length > 0) throw new CliError(`fetched ${fetched.length} of ${chosen.length} data sets; not ${failed.join(', ')} (see above)`);
      return { ...where, fetched };
    }
    if (action === 'path') {
      const [name] = names;
      if (names.length !== 1 || name === undefined) throw new CliError(`'data path' takes one data set name`);
      const d = lookup(name);
      const r = await fetchOne(d, o);
      const at = (p: string) => {
        const file = r.files.find((f) => f.path === p);
        if (!file) throw new Error(`data set ${d.name} has no file ${p}`); // p comes from its own spec
        return file.localPath;
      };
      const t = d.testSet;
      return {
        name: d.name,
        root: r.root,
        files: Object.fromEntries(r.files.map((f) => [f.path, f.localPath])),
        ...(t
          ? {
              source: at(t.source),
              reference: at(t.reference),
              ...(t.human ? { human: at(t.human.file), languagePair: t.human.languagePair } : {}),
              systems: Object.fromEntries(Object.entries(t.systems).map(([n, p]) => [n, at(p)])),
            }
          : {}),
        ...(d.suite ? { suite: at(d.suite.file) } : {}),
        ...(d.nliSet ? { nliSet: at(d.nliSet.file) } : {}),
        // null: the upstream has no licence file (the licence is named in `podium data list`)
        licenceFile: d.upstream.licenceFile === null ? null : at(d.upstream.licenceFile),
      };
    }
    throw new CliError(`expected 'list', 'fetch NAME' or 'path NAME'; got '${action ?? ''}' (see podium data --help)`);
  },
};
