// The model SDKs (openai, @anthropic-ai/sdk) are optional peer dependencies: only the agent that talks to a model
// loads its SDK, on its first request, so projects that never use that agent need not install it.
import { AgentError } from '../../errors.ts';

/** Runs `load` (a literal `import('<name>')`); a missing package becomes an AgentError saying what to install. */
export async function importSdk<T>(name: string, agent: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const missing = code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || String((error as Error).message).includes(`'${name}'`);
    if (!missing) throw error;
    throw new AgentError(`the ${agent} agent needs the package ${name}, which is not installed: npm install ${name}`, { cause: error });
  }
}
