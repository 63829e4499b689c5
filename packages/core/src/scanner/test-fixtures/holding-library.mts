// Run inside a private mount namespace by downloads-in-library.test.ts: prints which library
// folder the given downloads folder lies in, as the pass would see it there.
import { libraryFolderHolding } from '../downloads-in-library.ts';

const [downloads, ...libraries] = process.argv.slice(2);
console.log(JSON.stringify(await libraryFolderHolding(downloads!, libraries)));
