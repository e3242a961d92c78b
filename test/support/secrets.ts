// The suite creates thousands of API clients, each hashed with scrypt at the service's cost (about
// 25 ms of CPU): its own clients' secrets are hashed at 1/16 of it, a real scrypt whose cost the
// stored hash carries, so the token endpoint verifies them as any other.
import { hashSecret } from '../../server/areas/auth/secrets.js';

export const quickHash = (secret: string) => hashSecret(secret, { N: 1024, r: 8, p: 1 });
